import pg from 'pg';

const INT8_OID = 20;

/**
 * How column values come back from both engines. `bigint` (counts, identity ids) is read as a
 * JavaScript number: memsvc's counts stay far below 2^53, and a string there is a trap.
 */
export const memsvcTypeParsers = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8_OID && format !== 'binary') return (value: string) => Number(value);
    return format === undefined ? pg.types.getTypeParser(oid) : pg.types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;
