// Checks answers the API gave against the OpenAPI document that describes it, as a client generated from the document
// would read them. Usage: node check-answers.mjs <openapi.json> <answers.json>, where answers is
// [{"method", "path", "status", "contentType", "body"}]; prints {"problems": [...], "operations": {"GET /posts/{id}": n}}.
// A problem: a path or method the document does not have, a status it does not declare for the operation, a media
// type it does not declare for that status, a body where it declares none, or a body its schema refuses (a field it
// does not name included); a method
// the path lacks must be answered 405 (or 404, asked with a trailing slash: "trailingSlash": true, where Quarkus REST
// may route /a/b/ toward a longer path /a/b/{x}), a path the document lacks 404.
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { readFileSync } from "node:fs";

const [documentFile, answersFile] = process.argv.slice(2);
const document = JSON.parse(readFileSync(documentFile, "utf8"));
const answers = JSON.parse(readFileSync(answersFile, "utf8"));

// OpenAPI 3.1 schemas are JSON Schema 2020-12 with OpenAPI's own annotations (example, discriminator, xml), which
// are not validation keywords: not strict. Formats are checked; OpenAPI's numeric and binary ones only name a type.
const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
addFormats(ajv);
for (const format of ["int32", "int64", "float", "double", "byte", "binary", "password"]) {
  ajv.addFormat(format, true);
}
const BASE = "openapi.json";
ajv.addSchema({ $id: BASE, components: rebase(document.components ?? {}) });

// "#/components/schemas/X" means the document's components from wherever it is used. An object the document lists
// the properties of is closed: a field it does not name is drift (renamed, or added without the document).
function rebase(node) {
  if (Array.isArray(node)) return node.map(rebase);
  if (node === null || typeof node !== "object") return node;
  const copy = {};
  if (node.properties && !("additionalProperties" in node) && !node.allOf && !node.oneOf && !node.anyOf) {
    copy.additionalProperties = false;
  }
  for (const [key, value] of Object.entries(node)) {
    copy[key] = key === "$ref" && typeof value === "string" && value.startsWith("#/") ? BASE + value : rebase(value);
  }
  return copy;
}

// Templates tried most literal first, so /posts/feed is not taken for /posts/{id}.
const templates = Object.keys(document.paths ?? {})
  .map((template) => ({
    template,
    regex: new RegExp("^" + template.split(/\{[^}]+\}/).map((part) => part.replace(/[.*+?^$()|[\]\\]/g, "\\$&"))
      .join("[^/]+") + "$"),
    literal: template.replace(/\{[^}]+\}/g, "").length,
  }))
  .sort((a, b) => b.literal - a.literal);

// Each error once, naming the field a closed object does not list.
function explain(errors) {
  return [...new Set(errors.map((e) => `${e.instancePath || "the body"} ${e.message}`
    + (e.params?.additionalProperty ? ` (${e.params.additionalProperty})` : "")))].join("; ");
}

const problem = ajv.compile({ $ref: BASE + "#/components/schemas/Problem" });
const validators = new Map();
function validatorFor(key, schema) {
  if (!validators.has(key)) validators.set(key, ajv.compile(rebase(schema)));
  return validators.get(key);
}

const problems = new Set();
const operations = {};
for (const answer of answers) {
  const method = answer.method.toLowerCase();
  const match = templates.find(({ regex }) => regex.test(answer.path));
  const name = `${answer.method} ${match ? match.template : answer.path}`;
  const operation = match && document.paths[match.template][method];
  if (!operation) {
    // HTTP's own answers to a path the API does not have (404) or a method its resource does not have (405): a
    // problem, as every refusal.
    const expected = match ? 405 : 404;
    if (answer.status !== expected && !(match && answer.trailingSlash && answer.status === 404)) {
      problems.add(`${name}: answered ${answer.status} to a ${match ? "method" : "path"} the document does not have, not ${expected}`);
    } else if (answer.body && !problem(JSON.parse(answer.body))) {
      problems.add(`${name} ${answer.status}: not a problem: ${explain(problem.errors)}`);
    }
    continue;
  }
  operations[name] = (operations[name] ?? 0) + 1;
  const status = String(answer.status);
  const responses = operation.responses ?? {};
  const declared = responses[status] ?? responses[status[0] + "XX"] ?? responses.default;
  if (!declared) {
    problems.add(`${name}: answered ${status}, which the operation does not declare (it declares ${Object.keys(responses).join(", ")})`);
    continue;
  }
  const content = declared.content ?? {};
  const mediaType = (answer.contentType ?? "").split(";")[0].trim().toLowerCase();
  if (!answer.body) continue;
  if (Object.keys(content).length === 0) {
    problems.add(`${name} ${status}: answered a ${mediaType || "body"} body, and the document declares none`);
    continue;
  }
  const media = content[mediaType] ?? content["*/*"];
  if (!media) {
    problems.add(`${name} ${status}: answered ${mediaType}, the document declares ${Object.keys(content).join(", ")}`);
    continue;
  }
  if (!media.schema || !mediaType.endsWith("json")) continue;
  const validate = validatorFor(`${name} ${status} ${mediaType}`, media.schema);
  if (!validate(JSON.parse(answer.body))) {
    problems.add(`${name} ${status}: the body does not match the declared schema: ${explain(validate.errors)}`);
  }
}
process.stdout.write(JSON.stringify({ problems: [...problems].sort(), operations }));
