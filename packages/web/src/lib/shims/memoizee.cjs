'use strict';
/*
 * Stands in for the `memoizee` package in the dashboard's bundle. balena-sdk calls it only as
 * memoizee(fn, { primitive: true, promise: true [, maxAge] }) and uses `.clear()`, and
 * balena-semver as memoizee(fn, { primitive: true, normalizer }); the original (with es5-ext,
 * es6-symbol, event-emitter…) costs ~8 KB gzip on every first page. Same behaviour for those
 * options:
 * - the key is the first `fn.length` arguments, each as a string (`primitive`), or what
 *   `normalizer(arguments)` returns;
 * - a promise is cached as soon as it is made, and dropped if it rejects (`promise`);
 * - an entry expires `maxAge` ms after it was stored;
 * - `clear()` empties the cache, `delete(...args)` drops one entry.
 * Any other option is refused, so a new caller cannot silently get other semantics.
 */
var SUPPORTED = { primitive: true, promise: true, maxAge: true, length: true, normalizer: true };

module.exports = function memoize(fn, options) {
  options = options || {};
  Object.keys(options).forEach(function (name) {
    if (!SUPPORTED[name]) throw new Error('memoizee shim: option "' + name + '" is not supported');
  });
  var length = typeof options.length === 'number' ? options.length : fn.length;
  var maxAge = options.maxAge;
  var cache = new Map();
  function keyOf(args) {
    if (options.normalizer) return String(options.normalizer(args));
    var parts = [];
    for (var i = 0; i < length; i++) parts.push(String(args[i]));
    return parts.join('\u0001');
  }
  function memoized() {
    var key = keyOf(arguments);
    var hit = cache.get(key);
    if (hit && (maxAge == null || Date.now() - hit.at < maxAge)) return hit.value;
    var value = fn.apply(this, arguments);
    var entry = { value: value, at: Date.now() };
    cache.set(key, entry);
    if (options.promise && value && typeof value.then === 'function') {
      value.then(undefined, function () {
        if (cache.get(key) === entry) cache.delete(key);
      });
    }
    return value;
  }
  memoized.clear = function () {
    cache.clear();
  };
  memoized.delete = function () {
    cache.delete(keyOf(arguments));
  };
  return memoized;
};
