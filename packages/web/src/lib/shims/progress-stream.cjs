'use strict';
/*
 * Stands in for the `progress-stream` package, which balena-request uses only to report
 * download progress (`request.stream()`). The original carries its own older copy of
 * readable-stream and through2 (~7 KB gzip on every first page); this one builds on the
 * `stream` polyfill the SDK loads anyway. Same contract as balena-request reads it:
 * progress({ time, length }) → a pass-through stream emitting 'progress' with
 * { length, transferred, remaining, percentage, eta, runtime } at most every `time` ms and
 * once at the end. `eta` (seconds) uses the average rate since the start.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS stand-in, required by CommonJS code
var Transform = require('stream').Transform;

module.exports = function progress(options) {
  var opts = options || {};
  var length = opts.length || 0;
  var interval = opts.time || 0;
  var started = Date.now();
  var transferred = 0;
  var nextAt = started + interval;
  var stream;

  function report(done) {
    var elapsed = Math.max((Date.now() - started) / 1000, 0.001);
    var remaining = length >= transferred ? length - transferred : 0;
    var rate = transferred / elapsed;
    nextAt = Date.now() + interval;
    stream.emit('progress', {
      length: length,
      transferred: transferred,
      remaining: remaining,
      percentage: done ? 100 : length ? (transferred / length) * 100 : 0,
      eta: rate > 0 ? Math.round(remaining / rate) : 0,
      runtime: Math.floor(elapsed),
    });
  }

  stream = new Transform({
    transform: function (chunk, _encoding, callback) {
      transferred += chunk.length;
      if (Date.now() >= nextAt) report(false);
      callback(null, chunk);
    },
    flush: function (callback) {
      report(true);
      callback();
    },
  });
  stream.setLength = function (value) {
    length = value;
  };
  return stream;
};
