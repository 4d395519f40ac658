import { PGlite } from '@electric-sql/pglite';
const t=Date.now(); const db = await PGlite.create(); await db.query('select 1'); console.log('ms', Date.now()-t, process.memoryUsage().rss/1e6);
const r = await db.query('select $1::bigint as x', [5]); console.log(r);
