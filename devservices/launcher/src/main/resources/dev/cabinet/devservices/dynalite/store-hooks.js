// Preloaded into dynalite (node --require) by Cabinet's launcher: knobs that make the local store behave as DynamoDB
// does where dynalite does not, set at run time on dynalite's own port. POST /cabinet/store-hooks with a JSON body
// changes the knobs it names; GET /cabinet/store-hooks answers them all. With no knob set, requests pass untouched.
//
//   latency: {"medianMs": 3, "p99Ms": 10}  every call answers after a delay drawn from a log-normal distribution with
//            that median and 99th percentile (DynamoDB in one region answers in about 3 ms, 10 ms at p99), so that a
//            benchmark counts round trips as production pays them, not two cores' contention; null: none.
const http = require('http');

const PATH = '/cabinet/store-hooks';
const knobs = { latency: null };
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
        knobs[name] = value;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(knobs));
    } catch (e) {
      res.writeHead(400, { 'content-type': 'text/plain' });
      res.end(String(e.message));
    }
  });
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
      if (knobs.latency !== null) {
        const wait = latencyMs();
        const end = res.end;
        res.end = function (...ending) {
          setTimeout(() => end.apply(res, ending), wait);
          return res;
        };
      }
      handler.call(this, req, res);
    };
  }
  return createServer.apply(this, args);
};
