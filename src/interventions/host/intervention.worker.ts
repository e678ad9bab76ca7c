// The mentor worker: the agents run here, off the trainer's thread, reached over Comlink.
import * as Comlink from 'comlink';
import { createMentorApi } from './worker-api.ts';

Comlink.expose(createMentorApi());
