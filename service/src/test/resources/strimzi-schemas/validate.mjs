// Reads a JSON array of Strimzi resources on stdin and prints, as JSON, what the schema of Strimzi 1.0's v1 API
// (kafka.strimzi.io/v1, core.strimzi.io/v1) says of each: [] for a valid resource, otherwise its problems.
import { readFileSync } from "node:fs";

const SERVED = new Set(["kafka.strimzi.io/v1", "core.strimzi.io/v1"]);
const resources = JSON.parse(readFileSync(0, "utf8"));
const answers = [];
for (const resource of resources) {
  const where = `${resource.kind} ${resource.metadata?.name}`;
  if (!SERVED.has(resource.apiVersion)) {
    answers.push({ resource: where, problems: [`${resource.apiVersion} is not served by Strimzi 1.0, which serves v1 only`] });
    continue;
  }
  let model;
  try {
    model = (await import(`@kubernetes-models/strimzi-kafka-operator/${resource.apiVersion}/${resource.kind}`))[resource.kind];
  } catch (e) {
    answers.push({ resource: where, problems: [`no ${resource.kind} in ${resource.apiVersion}: ${e.message}`] });
    continue;
  }
  try {
    new model(resource).validate();
    answers.push({ resource: where, problems: [] });
  } catch (e) {
    answers.push({ resource: where, problems: (e.errors ?? [e]).map((p) => p.instancePath !== undefined
        ? `${p.instancePath || "/"} ${p.message}${p.params?.allowedValues ? " " + JSON.stringify(p.params.allowedValues) : ""}`
        : String(p.message ?? p)) });
  }
}
console.log(JSON.stringify(answers));
