// Collects every script error, console error and blocked network request
// into #tt-errors and <html data-errors>, so a reader (and the browser test)
// sees at once when a chart failed.
(function () {
  var errors = [];
  function record(msg) {
    errors.push(String(msg));
    document.documentElement.setAttribute('data-errors', String(errors.length));
    var el = document.getElementById('tt-errors');
    if (el) { el.textContent = 'Page errors:\n' + errors.join('\n'); el.hidden = false; }
  }
  window.ttRecordError = record;
  window.addEventListener('error', function (e) { record('error: ' + e.message + ' at ' + e.filename + ':' + e.lineno); });
  window.addEventListener('unhandledrejection', function (e) { record('unhandled rejection: ' + e.reason); });
  document.addEventListener('securitypolicyviolation', function (e) { record('blocked by CSP: ' + e.violatedDirective + ' ' + e.blockedURI); });
  var consoleError = console.error;
  console.error = function () {
    record('console.error: ' + Array.prototype.slice.call(arguments).join(' '));
    return consoleError.apply(console, arguments);
  };
  document.documentElement.setAttribute('data-errors', '0');
})();
