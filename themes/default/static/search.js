// The search box of blog's default theme: searches the index `blog build` writes (search/index.json
// and its shards) in the browser, as the reader types. No service, no dependency. The form stays
// hidden where this script does not run.
(function () {
  "use strict";
  var form = document.querySelector("form.site-search");
  if (!form || !window.fetch || !window.URL) return;
  var input = form.querySelector("input[type=search]");
  var status = form.querySelector(".search-status");
  var list = form.querySelector(".search-results");
  var manifest = new URL(form.getAttribute("data-index"), document.baseURI);
  var root = new URL("../", manifest);
  var posts = [];
  var loading = null;
  var limit = 10;
  form.hidden = false;

  function load() {
    if (loading) return loading;
    loading = fetch(manifest).then(function (response) {
      if (!response.ok) throw new Error(response.status);
      return response.json();
    }).then(function (index) {
      return Promise.all(index.shards.map(function (name) {
        return fetch(new URL(name, manifest)).then(function (response) { return response.json(); }).then(function (entries) {
          entries.forEach(function (entry) {
            entry.title = entry.t.toLowerCase();
            entry.tags = entry.g.join(" ").toLowerCase();
            entry.words = entry.w.toLowerCase();
            posts.push(entry);
          });
          show();
        });
      }));
    }).catch(function () {
      loading = null;
      status.textContent = "The search index could not be loaded.";
    });
    return loading;
  }

  // A post matches when each word of the query is in its title, tags or text; title and tag
  // matches rank first, then the newer post.
  function search(query) {
    var terms = query.toLowerCase().split(/\s+/).filter(Boolean);
    if (!terms.length) return [];
    var found = [];
    posts.forEach(function (post) {
      var score = 0;
      for (var i = 0; i < terms.length; i++) {
        var term = terms[i];
        var inTitle = post.title.indexOf(term) >= 0, inTags = post.tags.indexOf(term) >= 0;
        if (!inTitle && !inTags && post.words.indexOf(term) < 0) return;
        score += inTitle ? 10 : inTags ? 5 : 1;
      }
      found.push({ post: post, score: score });
    });
    found.sort(function (a, b) {
      return b.score - a.score || (b.post.d || "").localeCompare(a.post.d || "") || a.post.t.localeCompare(b.post.t);
    });
    return found;
  }

  function show() {
    var query = input.value.trim();
    list.textContent = "";
    if (!query) { status.textContent = ""; return; }
    var found = search(query);
    found.slice(0, limit).forEach(function (result) {
      var post = result.post;
      var item = document.createElement("li");
      var link = document.createElement("a");
      link.href = new URL(post.u, root).href;
      link.textContent = post.t;
      item.appendChild(link);
      if (post.d) {
        var time = document.createElement("time");
        time.dateTime = post.d;
        time.textContent = post.d;
        item.appendChild(document.createTextNode(" "));
        item.appendChild(time);
      }
      if (post.s) {
        var text = document.createElement("p");
        text.textContent = post.s;
        item.appendChild(text);
      }
      list.appendChild(item);
    });
    var shown = Math.min(found.length, limit);
    status.textContent = found.length === 0 ? (loading && posts.length === 0 ? "Searching…" : "No posts found.")
      : found.length === 1 ? "1 post found." : found.length > shown ? found.length + " posts found; the first " + shown + " shown."
      : found.length + " posts found.";
  }

  input.addEventListener("focus", load);
  input.addEventListener("input", function () { load(); show(); });
  input.addEventListener("keydown", function (event) {
    if (event.key === "Escape") { input.value = ""; show(); }
  });
  form.addEventListener("submit", function (event) {
    event.preventDefault();
    var first = list.querySelector("a");
    if (first) window.location.href = first.href;
  });
})();
