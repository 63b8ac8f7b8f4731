/**
 * The view's one script, served from the gateway (the page's Content-Security-Policy allows no other and no
 * inline script). It only moves HTML the gateway rendered and escaped into the page, with the auditor's
 * bearer token: the token is kept in sessionStorage and sent as Authorization, never in a URL. The live
 * timeline reads the target's event stream (/v1/targets/{id}/events) with fetch, because EventSource
 * cannot send the token, and asks for the rows after the last one it shows on each event (then the files'
 * versions and the replay again).
 */
export const AUDIT_VIEW_SCRIPT = `'use strict';
(function () {
  var KEY = 'palimpsest-audit-token';
  var token = sessionStorage.getItem(KEY) || '';
  var live = null;
  var $ = function (id) { return document.getElementById(id); };
  var headers = function () { return token ? { Authorization: 'Bearer ' + token } : {}; };

  function fail(status, text) {
    var message = text;
    try { var body = JSON.parse(text); message = (body.error && body.error.message) || body.message || text; } catch (e) { /* plain text */ }
    var box = $('error');
    box.textContent = 'HTTP ' + status + ': ' + message;
    box.hidden = false;
    box.setAttribute('data-status', String(status));
  }

  function get(path) {
    return fetch(path, { headers: headers(), cache: 'no-store' }).then(function (r) {
      return r.text().then(function (text) {
        if (!r.ok) { fail(r.status, text); throw new Error('HTTP ' + r.status); }
        return { text: text, response: r };
      });
    });
  }

  /** The slot is aria-busy while its fragment loads. */
  function fill(id, path) {
    var slot = $(id);
    slot.setAttribute('aria-busy', 'true');
    return get(path).then(function (got) { slot.innerHTML = got.text; return got; }).finally(function () { slot.removeAttribute('aria-busy'); });
  }

  function targetOfHash() {
    var m = /^#target=([0-9a-fA-F-]{36})$/.exec(location.hash);
    return m ? m[1] : null;
  }

  function start() {
    $('error').hidden = true;
    fill('verification', '/audit/fragments/verification').catch(function () {});
    fill('workspace', '/audit/fragments/workspace').then(openTarget).catch(function () {});
  }

  function openTarget() {
    var id = targetOfHash();
    if (live) { live.abort(); live = null; }
    $('target-panel').hidden = !id;
    if (!id) return;
    $('diff').innerHTML = '';
    $('as-of').innerHTML = '';
    fill('target', '/audit/fragments/targets/' + id).then(function () { follow(id); }).catch(function () {});
  }

  function rows() { return $('timeline-rows'); }

  var fetching = false, again = false;
  function appendNewRows(id) {
    if (fetching) { again = true; return; }
    var body = rows();
    if (!body || body.getAttribute('data-target') !== id) return;
    fetching = true;
    get('/audit/fragments/targets/' + id + '/rows?after=' + body.getAttribute('data-last-position')).then(function (got) {
      var last = got.response.headers.get('X-Audit-Last-Position');
      if (got.text.trim()) {
        var holder = document.createElement('tbody');
        holder.innerHTML = got.text;
        Array.prototype.slice.call(holder.children).forEach(function (row) { row.classList.add('fresh'); body.appendChild(row); });
        // What the new events change elsewhere on the page: the files' versions and the replay.
        fill('workspace', '/audit/fragments/workspace').catch(function () {});
        fill('replay', '/audit/fragments/targets/' + id + '/replay').catch(function () {});
      }
      if (last) body.setAttribute('data-last-position', last);
      var version = got.response.headers.get('X-Audit-Version');
      if (version) $('current-version').textContent = version;
    }).catch(function () {}).then(function () {
      fetching = false;
      if (again) { again = false; appendNewRows(id); }
    });
  }

  /** Reads the Server-Sent Events of the target; reconnects after the position it last showed. */
  function follow(id) {
    var controller = new AbortController();
    live = controller;
    var after = rows().getAttribute('data-last-position');
    fetch('/v1/targets/' + id + '/events?after=' + after, { headers: headers(), signal: controller.signal }).then(function (r) {
      if (!r.ok || !r.body) throw new Error('event stream: HTTP ' + r.status);
      var reader = r.body.getReader();
      var decoder = new TextDecoder();
      var buffer = '';
      function pump() {
        return reader.read().then(function (chunk) {
          if (chunk.done) throw new Error('event stream ended');
          buffer += decoder.decode(chunk.value, { stream: true });
          var blocks = buffer.split('\\n\\n');
          buffer = blocks.pop();
          if (blocks.some(function (b) { return /^id: /m.test(b); })) appendNewRows(id);
          return pump();
        });
      }
      return pump();
    }).catch(function () {
      if (live === controller) setTimeout(function () { if (live === controller) follow(id); }, 2000);
    });
  }

  function submitInto(formId, slot, build) {
    document.addEventListener('submit', function (event) {
      if (event.target.id !== formId) return;
      event.preventDefault();
      var form = event.target;
      fill(slot, '/audit/fragments/targets/' + form.getAttribute('data-target') + build(form)).catch(function () {});
    });
  }
  submitInto('diff-form', 'diff', function (f) { return '/diff?from=' + encodeURIComponent(f.from.value) + '&to=' + encodeURIComponent(f.to.value); });
  submitInto('as-of-form', 'as-of', function (f) { return '/as-of?version=' + encodeURIComponent(f.version.value); });

  $('token-form').addEventListener('submit', function (event) {
    event.preventDefault();
    token = $('token').value.trim();
    sessionStorage.setItem(KEY, token);
    $('token').value = '';
    start();
  });
  $('verify').addEventListener('click', function () { fill('verification', '/audit/fragments/verification').catch(function () {}); });
  $('download').addEventListener('click', function () {
    fetch('/audit/bundle', { headers: headers() }).then(function (r) {
      if (!r.ok) return r.text().then(function (text) { fail(r.status, text); });
      return r.blob().then(function (blob) {
        var link = document.createElement('a');
        link.href = URL.createObjectURL(blob);
        link.download = 'palimpsest-audit-bundle.jsonl';
        document.body.appendChild(link);
        link.click();
        link.remove();
        setTimeout(function () { URL.revokeObjectURL(link.href); }, 60000);
      });
    });
  });
  window.addEventListener('hashchange', openTarget);
  start();
})();
`;
