'use strict';
/*
 * Stands in for the `side-channel` package, which `qs` (used by balena-request) needs only
 * to detect cycles while stringifying. The original supports engines without WeakMap and
 * drags in object-inspect, get-intrinsic and friends (~10 KB gzip on the first page).
 * Same API: getSideChannel() → { assert, delete, get, has, set }.
 */
module.exports = function getSideChannel() {
  var objects = new WeakMap();
  var primitives = new Map();
  function store(key) {
    return (typeof key === 'object' && key !== null) || typeof key === 'function' ? objects : primitives;
  }
  return {
    assert: function (key) {
      if (!store(key).has(key)) throw new TypeError('Side channel does not contain the given key');
    },
    delete: function (key) {
      return store(key).delete(key);
    },
    get: function (key) {
      return store(key).get(key);
    },
    has: function (key) {
      return store(key).has(key);
    },
    set: function (key, value) {
      store(key).set(key, value);
    },
  };
};
