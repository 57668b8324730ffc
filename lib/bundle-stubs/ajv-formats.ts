/** Stands in for `ajv-formats` beside the Ajv stub (ajv.ts says why). */
export { addFormats as default } from './ajv.ts';
