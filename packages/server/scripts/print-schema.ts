// Prints the DDL the model implies; used to write a new migration by hand:
//   node --import tsx packages/server/scripts/print-schema.ts [resource ...]
import { model } from '@flotilla/model';
import { schemaSql } from '../src/infra/db/schema.js';

const names = process.argv.slice(2);
process.stdout.write(schemaSql(model, names.length ? names : undefined));
