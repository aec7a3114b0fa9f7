'use strict';
/*
 * Stands in for the `fetch-readablestream` package, which balena-request's browser build
 * requires for `request.stream()` (balena-sdk's `logs.subscribe`). Required from CommonJS, the
 * package's transpiled ES default export arrives as `{ default }`, and the stream request
 * failed before it was sent ("e is not a function"). Every browser the dashboard supports
 * streams a fetch body (`response.body.getReader()`), which is the transport the package
 * itself picks in them; balena-request reads the body that way.
 */
module.exports = function fetchStream(url, init) {
  return fetch(url, init);
};
