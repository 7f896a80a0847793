/**
 * The largest file an import reads (issue 17: "a 50 MB file" is bad input). Checked on the
 * file's size before a byte is read, and on inline content, so a huge or endless input never
 * reaches the parser.
 */
export const IMPORT_MAX_FILE_BYTES = 50 * 1024 * 1024;
