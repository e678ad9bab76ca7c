// `node --import tsx --import ./cli/register.mjs cli/<tool>.ts`: adds Vite's `?raw` imports.
import { register } from 'node:module';

register('./raw-loader.mjs', import.meta.url);
