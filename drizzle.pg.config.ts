import { defineConfig } from 'drizzle-kit';

// PostgreSQL's migrations, from db/schema.pg.ts (written from db/schema.ts: npm run db:pg-schema).
export default defineConfig({
  dialect: 'postgresql',
  schema: './db/schema.pg.ts',
  out: './db/migrations-pg',
});
