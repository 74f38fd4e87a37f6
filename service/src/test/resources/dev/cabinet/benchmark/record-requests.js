// Preloaded into the benchmark's dynalite (node --require, by StoreRecorder's wrapper): records the requests it serves
// while a recording is on, so that the benchmark can replay the projector's own calls, not calls shaped like them.
// SIGUSR2 starts a recording (and creates $CABINET_RECORDING.on); the next SIGUSR2 ends it and writes it to
// $CABINET_RECORDING, one request a line: its operation (X-Amz-Target), a tab, its JSON body. Recording costs the
// store one array push a request; the file is written after the measured window, when the recording ends.
const http = require('http');
const fs = require('fs');

const path = process.env.CABINET_RECORDING;
const max = Number(process.env.CABINET_RECORDING_MAX || 200000);
let recording = null;

if (path) {
  const createServer = http.createServer;
  http.createServer = function (...args) {
    const server = createServer.apply(this, args);
    server.prependListener('request', (req) => {
      const into = recording;
      if (into === null || into.length >= max) {
        return;
      }
      const chunks = [];
      req.on('data', (chunk) => chunks.push(chunk));
      req.on('end', () => {
        if (into.length < max) {
          into.push(Buffer.concat([Buffer.from(String(req.headers['x-amz-target']) + '\t'), ...chunks, Buffer.from('\n')]));
        }
      });
    });
    return server;
  };

  process.on('SIGUSR2', () => {
    if (recording === null) {
      recording = [];
      fs.writeFileSync(path + '.on', '');
      return;
    }
    const requests = recording;
    recording = null;
    fs.writeFileSync(path + '.tmp', Buffer.concat(requests));
    fs.renameSync(path + '.tmp', path);
    fs.rmSync(path + '.on', { force: true });
  });
}
