// The mentor log's reading of an intervention note; the UI reaches the mentor's formats only
// through app.
export { splitNote } from '../interventions/mentor/notes.ts';
