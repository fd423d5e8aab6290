// Posts the page's form at once (an LTI message going back to the LMS); the form's own
// button does the same where scripts do not run.
document.addEventListener("DOMContentLoaded", function () {
  var form = document.querySelector("form[data-autopost]");
  if (form) form.submit();
  var close = document.querySelector("[data-lti-close]");
  if (close) {
    var target = window.opener || window.parent;
    if (target && target !== window) target.postMessage({ subject: "org.imsglobal.lti.close" }, "*");
  }
});
