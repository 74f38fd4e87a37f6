// Preloaded into dynalite (node --require). dynalite rethrows the 'error' event of an incoming request, so a client
// that goes away in the middle of a request (ECONNRESET, "aborted": a killed application, a timed-out call) takes the
// whole emulator down with every table in it. Only that case is survived; anything else still ends the process.
process.on('uncaughtException', (err) => {
  if (err && (err.code === 'ECONNRESET' || err.message === 'aborted')) {
    console.error(new Date().toISOString() + ' dynalite: a client went away mid-request (' + err.message
      + '); still serving');
    return;
  }
  console.error(err);
  process.exit(1);
});
