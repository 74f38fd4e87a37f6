// Preloaded into dynalite (node --require) by Cabinet's launcher: knobs that make the local store behave as DynamoDB
// does where dynalite does not, set at run time on dynalite's own port. POST /cabinet/store-hooks with a JSON body
// changes the knobs it names; GET /cabinet/store-hooks answers them all. With no knob set, requests pass untouched.
//
//   latency: {"medianMs": 3, "p99Ms": 10}  every call answers after a delay drawn from a log-normal distribution with
//            that median and 99th percentile (DynamoDB in one region answers in about 3 ms, 10 ms at p99), so that a
//            benchmark counts round trips as production pays them, not two cores' contention; null: none.
//   gsiLag:  {"minMs": 50, "maxMs": 800}  an item that a PutItem, UpdateItem or BatchWriteItem writes stays out of every
//            Query and Scan of a global secondary index for a delay drawn uniformly from that range (per write; the
//            latest write of an item counts), as DynamoDB propagates index entries after the write has answered. Reads
//            of the table itself see the write at once, as in DynamoDB. Simpler than DynamoDB in two ways, both on the
//            strict side for a reader: an item written again is missing from the index meanwhile (DynamoDB would show
//            its older version), and a removal shows at once. null: none.
//   throttle: {"writesPerSecond": 10, "readsPerSecond": null, "keyPrefix": "USER#"}  DynamoDB refuses a hot key with
//            ProvisionedThroughputExceededException (the SDK retries it with backoff); here a key is refused past these
//            rates (a token bucket holding one second's worth): writes per item (a hot partition that DynamoDB split
//            by sort key still takes only so much on one item), reads per partition key (GetItem, BatchGetItem, and
//            Query of the table). Only keys whose partition key starts with keyPrefix (every key, if absent); a rate
//            that is null or absent is not limited; 0 refuses every call. A batch that touches a refused key is refused
//            whole (DynamoDB then answers the keys it could not serve as unprocessed). null: none.
//   holdWrites: {"keys": ["POST#p1 ", "USER#u1 POST#"], "ms": 1500}  a write (PutItem, UpdateItem, DeleteItem,
//            BatchWriteItem) that touches an item whose "<partition key> <sort key>" starts with one of keys reaches
//            dynalite only after this delay, while every other call goes on: a test's way to land some writes after
//            others sent with them, the interleaving a slow network path or a retried call makes in production.
//            null: none.
const http = require('http');
const zlib = require('zlib');

const PATH = '/cabinet/store-hooks';
const knobs = { latency: null, gsiLag: null, throttle: null, holdWrites: null };
/** Per table: its key attribute names (DescribeTable, asked once; forgotten when any table is created or deleted). */
const keySchemas = new Map();
/** Per table: key of an item written lately (JSON of its key values) -> when its index entries become visible (ms). */
const laggingItems = new Map();
const INDEX_LAGGED = new Set(['PutItem', 'UpdateItem', 'BatchWriteItem', 'Query', 'Scan']);
const THROTTLED_WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem']);
const THROTTLED_READS = new Set(['GetItem', 'BatchGetItem', 'Query']);
/** Per key ('w' or 'r', table, key): the tokens left and when they were counted. */
const buckets = new Map();
const Z99 = 2.3263478740408408; // the standard normal's 99th percentile

function normal() {
  // Box-Muller: one standard normal draw
  let u = 0;
  while (u === 0) u = Math.random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * Math.random());
}

function latencyMs() {
  const { medianMs, p99Ms } = knobs.latency;
  const sigma = p99Ms > medianMs ? Math.log(p99Ms / medianMs) / Z99 : 0;
  return medianMs * Math.exp(sigma * normal());
}

function control(req, res) {
  if (req.method === 'GET') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(knobs));
    return;
  }
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    try {
      const changes = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      for (const name of Object.keys(changes)) {
        if (!(name in knobs)) throw new Error('no knob ' + name + '; knobs: ' + Object.keys(knobs).join(', '));
        const value = changes[name];
        if (name === 'latency' && value !== null
            && !(value.medianMs >= 0 && value.p99Ms >= value.medianMs)) {
          throw new Error('latency needs medianMs >= 0 and p99Ms >= medianMs');
        }
        if (name === 'gsiLag' && value !== null && !(value.minMs >= 0 && value.maxMs >= value.minMs)) {
          throw new Error('gsiLag needs minMs >= 0 and maxMs >= minMs');
        }
        if (name === 'throttle' && value !== null && ['writesPerSecond', 'readsPerSecond'].some((rate) =>
          value[rate] !== undefined && value[rate] !== null && !(value[rate] >= 0))) {
          throw new Error('throttle needs writesPerSecond and readsPerSecond >= 0 (or null)');
        }
        if (name === 'holdWrites' && value !== null && !(Array.isArray(value.keys) && value.keys.length > 0
            && value.keys.every((key) => typeof key === 'string' && key.length > 0) && value.ms >= 0)) {
          throw new Error('holdWrites needs keys, non-empty prefixes of "<partition key> <sort key>", and ms >= 0');
        }
        knobs[name] = value;
        if (name === 'gsiLag' && value === null) laggingItems.clear();
        if (name === 'throttle') buckets.clear();
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(knobs));
    } catch (e) {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end(String(e.message));
    }
  });
}

/** The table's key attribute names, asked of dynalite itself (through this hook) the first time. */
function keySchema(table, port) {
  if (keySchemas.has(table)) return keySchemas.get(table);
  const asked = new Promise((resolve, reject) => {
    const body = JSON.stringify({ TableName: table });
    const ask = http.request({
      host: '127.0.0.1', port, method: 'POST', path: '/',
      headers: {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': 'DynamoDB_20120810.DescribeTable',
        // dynalite checks that a signature is present, not what it signs.
        authorization: 'AWS4-HMAC-SHA256 Credential=hooks/20200101/us-east-1/dynamodb/aws4_request, '
          + 'SignedHeaders=host, Signature=0',
        'x-amz-date': '20200101T000000Z',
        'content-length': Buffer.byteLength(body),
      },
    }, (answer) => {
      const chunks = [];
      answer.on('data', (chunk) => chunks.push(chunk));
      answer.on('end', () => {
        try {
          const described = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          if (!described.Table) throw new Error('no table ' + table + ': ' + JSON.stringify(described));
          resolve(described.Table.KeySchema.map((element) => element.AttributeName));
        } catch (e) {
          reject(e);
        }
      });
    });
    ask.on('error', reject);
    ask.end(body);
  });
  keySchemas.set(table, asked);
  asked.catch(() => keySchemas.delete(table));
  return asked;
}

function keyOf(item, schema) {
  return JSON.stringify(schema.map((name) => item[name]));
}

/** Notes the items a successful write wrote as not yet visible in any index. */
async function writeLags(target, request, port) {
  const now = Date.now();
  const lag = () => knobs.gsiLag.minMs + Math.random() * (knobs.gsiLag.maxMs - knobs.gsiLag.minMs);
  const note = (table, key) => {
    if (!laggingItems.has(table)) laggingItems.set(table, new Map());
    const lagging = laggingItems.get(table);
    const visible = now + lag();
    lagging.set(key, Math.max(visible, lagging.get(key) || 0));
    if (lagging.size > 10000) {
      for (const [k, at] of lagging) if (at <= now) lagging.delete(k);
    }
  };
  if (target === 'UpdateItem') {
    note(request.TableName, keyOf(request.Key, await keySchema(request.TableName, port)));
  } else if (target === 'PutItem') {
    note(request.TableName, keyOf(request.Item, await keySchema(request.TableName, port)));
  } else {
    for (const [table, writes] of Object.entries(request.RequestItems || {})) {
      const schema = await keySchema(table, port);
      for (const write of writes) {
        if (write.PutRequest) note(table, keyOf(write.PutRequest.Item, schema));
      }
    }
  }
}

/** The answer of an index Query or Scan without the items whose index entries are not visible yet. */
async function withoutLaggingItems(request, body, port) {
  const lagging = laggingItems.get(request.TableName);
  if (!lagging || lagging.size === 0) return body;
  const schema = await keySchema(request.TableName, port);
  const answer = JSON.parse(body);
  const now = Date.now();
  const items = (answer.Items || []).filter((item) => !(lagging.get(keyOf(item, schema)) > now));
  if (items.length === (answer.Items || []).length) return body;
  answer.Count -= answer.Items.length - items.length;
  answer.Items = items;
  return JSON.stringify(answer);
}

/** Takes a token of the key's bucket; false when it has none left (the key is over its rate). */
function take(id, rate) {
  const now = Date.now();
  let bucket = buckets.get(id);
  if (!bucket) {
    bucket = { tokens: rate, at: now };
    buckets.set(id, bucket);
  }
  bucket.tokens = Math.min(rate, bucket.tokens + ((now - bucket.at) / 1000) * rate);
  bucket.at = now;
  if (bucket.tokens < 1) return false;
  bucket.tokens -= 1;
  return true;
}

/** The partition key value of a Query of the table (its key condition's equality on the hash key). */
function queriedPartition(request, schema) {
  const names = request.ExpressionAttributeNames || {};
  const values = request.ExpressionAttributeValues || {};
  const equality = /([#\w]+)\s*=\s*(:\w+)/g;
  let match;
  while ((match = equality.exec(request.KeyConditionExpression || '')) !== null) {
    const name = names[match[1]] || match[1];
    if (name === schema[0]) return values[match[2]];
  }
  return undefined;
}

/** [table, the key's attribute values (writes: the item's key; reads: the partition key)] of every key a call touches. */
async function touchedKeys(target, request, port) {
  const touched = [];
  if (target === 'PutItem') touched.push([request.TableName, request.Item]);
  if (target === 'UpdateItem' || target === 'DeleteItem' || target === 'GetItem') {
    touched.push([request.TableName, request.Key]);
  }
  if (target === 'BatchWriteItem') {
    for (const [table, writes] of Object.entries(request.RequestItems || {})) {
      for (const write of writes) {
        touched.push([table, write.PutRequest ? write.PutRequest.Item : (write.DeleteRequest || {}).Key]);
      }
    }
  }
  if (target === 'BatchGetItem') {
    for (const [table, asked] of Object.entries(request.RequestItems || {})) {
      for (const key of asked.Keys || []) touched.push([table, key]);
    }
  }
  if (target === 'Query') {
    if (request.IndexName) return false;
    const schema = await keySchema(request.TableName, port);
    touched.push([request.TableName, { [schema[0]]: queriedPartition(request, schema) }]);
  }
  return touched;
}

/** Whether a write touches an item whose "<partition key> <sort key>" starts with one of the hold's keys. */
async function held(hold, target, request, port) {
  for (const [table, item] of await touchedKeys(target, request, port)) {
    if (!item) continue;
    const schema = await keySchema(table, port);
    const text = schema.map((name) => item[name] ? String(item[name].S !== undefined ? item[name].S : item[name].N)
      : '').join(' ');
    if (hold.keys.some((key) => text.startsWith(key))) return true;
  }
  return false;
}

/** Whether the call goes past a throttled key's rate (every key it touches takes a token). */
async function overRate(throttle, target, request, port) {
  const { writesPerSecond, readsPerSecond, keyPrefix } = throttle;
  const writing = THROTTLED_WRITES.has(target);
  const rate = writing ? writesPerSecond : readsPerSecond;
  if (rate === undefined || rate === null) return false;
  const touched = await touchedKeys(target, request, port);
  let over = false;
  for (const [table, item] of touched) {
    if (!item) continue;
    const schema = await keySchema(table, port);
    const partition = item[schema[0]];
    const value = partition && (partition.S !== undefined ? partition.S : partition.N);
    if (keyPrefix && !(typeof value === 'string' && value.startsWith(keyPrefix))) continue;
    const key = writing ? keyOf(item, schema) : JSON.stringify([partition]);
    if (!take((writing ? 'w' : 'r') + table + '|' + key, rate)) over = true;
  }
  return over;
}

/** DynamoDB's answer to a call past a key's rate. */
function refuse(res) {
  const body = JSON.stringify({
    __type: 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException',
    message: 'The level of configured provisioned throughput for the table was exceeded. '
      + 'Consider increasing your provisioning level with the UpdateTable API.',
  });
  res.statusCode = 400;
  res.setHeader('x-amzn-RequestId', 'store-hooks-' + Date.now());
  res.setHeader('Content-Type', 'application/x-amz-json-1.0');
  res.setHeader('Content-Length', Buffer.byteLength(body, 'utf8'));
  res.setHeader('x-amz-crc32', crc32(body));
  res.end(body);
}

/**
 * The request as dynalite is to see it: its 'data' and 'end' listeners are held until {@code release} hands them the
 * whole body, so that a throttled call can be refused before dynalite carries it out.
 */
function heldBack(req) {
  let listeners = { data: [], end: [] };
  const proxy = Object.create(req);
  proxy.on = function (event, listener) {
    if (event in listeners) listeners[event].push(listener);
    else req.on(event, listener);
    return proxy;
  };
  proxy.removeAllListeners = function (...events) {
    listeners = { data: [], end: [] };
    req.removeAllListeners(...events);
    return proxy;
  };
  proxy.release = (body) => {
    if (body.length > 0) listeners.data.forEach((listener) => listener(body));
    listeners.end.forEach((listener) => listener());
  };
  return proxy;
}

/** The CRC-32 the AWS SDK checks an answer against (x-amz-crc32); zlib has it from Node 20.15 on. */
function crc32(text) {
  const bytes = Buffer.from(text, 'utf8');
  if (typeof zlib.crc32 === 'function') return zlib.crc32(bytes) >>> 0;
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

const createServer = http.createServer;
http.createServer = function (...args) {
  const at = args.findIndex((arg) => typeof arg === 'function');
  if (at >= 0) {
    const handler = args[at];
    args[at] = function (req, res) {
      if (req.url === PATH) {
        control(req, res);
        return;
      }
      const target = String(req.headers['x-amz-target'] || '').split('.')[1];
      if (target === 'CreateTable' || target === 'DeleteTable') keySchemas.clear();
      const lagged = knobs.gsiLag !== null && INDEX_LAGGED.has(target);
      const throttle = knobs.throttle !== null && (THROTTLED_WRITES.has(target) || THROTTLED_READS.has(target))
        ? knobs.throttle : null;
      const hold = knobs.holdWrites !== null && THROTTLED_WRITES.has(target) ? knobs.holdWrites : null;
      // Held back from dynalite until its body is read and the knobs have decided (refused, delayed or let through).
      const decided = throttle !== null || hold !== null;
      const wait = knobs.latency !== null ? latencyMs() : 0;
      if (!lagged && !decided && wait === 0) {
        handler.call(this, req, res);
        return;
      }
      const chunks = [];
      if (lagged || decided) req.on('data', (chunk) => chunks.push(chunk));
      const end = res.end;
      const finish = (ending) => {
        if (wait > 0) setTimeout(() => end.apply(res, ending), wait);
        else end.apply(res, ending);
      };
      res.end = function (...ending) {
        if (!lagged || res.statusCode !== 200) {
          finish(ending);
          return res;
        }
        const port = req.socket.localPort;
        let request;
        try {
          request = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch (e) {
          finish(ending);
          return res;
        }
        const reading = target === 'Query' || target === 'Scan';
        if (reading && !request.IndexName) {
          finish(ending);
          return res;
        }
        const changed = reading
          ? withoutLaggingItems(request, String(ending[0]), port).then((body) => {
            if (body === ending[0]) return ending;
            res.setHeader('Content-Length', Buffer.byteLength(body, 'utf8'));
            res.setHeader('x-amz-crc32', crc32(body));
            return [body];
          })
          : writeLags(target, request, port).then(() => ending);
        changed.then(finish, (e) => {
          console.error(new Date().toISOString() + ' store-hooks: gsiLag could not follow a ' + target + ': '
            + e.message);
          finish(ending);
        });
        return res;
      };
      if (!decided) {
        handler.call(this, req, res);
        return;
      }
      const proxy = heldBack(req);
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        let request;
        try {
          request = JSON.parse(body.toString('utf8'));
        } catch (e) {
          proxy.release(body);
          return;
        }
        const port = req.socket.localPort;
        // With the knobs as they were when the call arrived: one changed meanwhile applies to later calls.
        (hold !== null ? held(hold, target, request, port) : Promise.resolve(false))
          .then((touches) => touches ? new Promise((resolve) => setTimeout(resolve, hold.ms)) : null)
          .then(() => throttle !== null ? overRate(throttle, target, request, port) : false)
          .then((over) => {
            if (over) refuse(res);
            else proxy.release(body);
          }, (e) => {
            console.error(new Date().toISOString() + ' store-hooks: could not decide on a ' + target + ': '
              + e.message);
            proxy.release(body);
          });
      });
      handler.call(this, proxy, res);
    };
  }
  return createServer.apply(this, args);
};
