// tracker: small behaviours htmx does not cover. No inline script anywhere (strict CSP).
(function () {
  "use strict";

  // Alerts come from the rules engine as an HX-Trigger event; we only make them felt.
  document.body.addEventListener("tracker:alerts", function (evt) {
    var alerts = (evt.detail && evt.detail.value) || evt.detail || [];
    var strong = ["victory", "royal_due", "discard_due", "privilege_taken", "extra_turn"];
    var felt = Array.prototype.some.call(alerts, function (a) { return strong.indexOf(a.kind) >= 0; });
    if (felt && navigator.vibrate) { navigator.vibrate(120); }
  });

  // The victory banner stays until someone closes it.
  document.addEventListener("click", function (evt) {
    var btn = evt.target.closest("[data-dismiss]");
    if (!btn) { return; }
    var el = document.getElementById(btn.getAttribute("data-dismiss"));
    if (el) { el.hidden = true; }
  });

  // A save button marked aria-disabled (the preview says the rules refuse it) does not post.
  document.addEventListener("submit", function (evt) {
    var btn = evt.target.querySelector("button[aria-disabled='true']");
    if (btn) { evt.preventDefault(); }
  }, true);
  document.body.addEventListener("htmx:confirm", function (evt) {
    var btn = evt.target.querySelector && evt.target.querySelector("button[aria-disabled='true']");
    if (btn) { evt.preventDefault(); }
  });
})();
