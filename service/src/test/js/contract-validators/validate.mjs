// Validates documents against Cabinet's event schemas with ajv, as a JavaScript producer would: each document is
// parsed by JSON.parse (numbers become doubles). Usage: node validate.mjs <schema folder> <cases.json>, where cases is
// [{"type": "...", "json": "<document text>"}]; prints a JSON array: null where valid, else ajv's error text.
import Ajv2020 from "ajv/dist/2020.js";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

const [schemaDir, casesFile] = process.argv.slice(2);
// strict mode, as ajv defaults to: Cabinet's own keywords must be declared, anything else unknown is an error.
const ajv = new Ajv2020({ strict: true });
ajv.addKeyword("x-cabinet-topic");
ajv.addKeyword("x-cabinet-key");
ajv.addKeyword("x-cabinet-compatibility");
ajv.addKeyword("x-personal-data");
const validators = new Map();
for (const file of readdirSync(schemaDir).filter((name) => name.endsWith(".json"))) {
  const schema = JSON.parse(readFileSync(join(schemaDir, file), "utf8"));
  validators.set(schema.title, ajv.compile(schema));
}
const cases = JSON.parse(readFileSync(casesFile, "utf8"));
const verdicts = cases.map(({ type, json }) => {
  const validate = validators.get(type);
  if (!validate) {
    throw new Error(`no schema for ${type}`);
  }
  return validate(JSON.parse(json)) ? null : ajv.errorsText(validate.errors);
});
process.stdout.write(JSON.stringify(verdicts));
