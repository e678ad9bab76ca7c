/** Where the e2e servers listen: the built site at the root, and the same site under a sub-path. */
export const PORT = Number(process.env.E2E_PORT ?? 4173);
export const SUBPATH_PORT = Number(process.env.E2E_SUBPATH_PORT ?? 4175);
export const SUBPATH = '/course/mentor/';
export const SUBPATH_URL = `http://127.0.0.1:${SUBPATH_PORT}${SUBPATH}`;
