import Foundation
import Mustache

// Renders templates of 20 copies of one tag with a post's values, as blog gives them (dictionaries of
// strings, booleans and arrays), and prints the best of 3 runs of 5,000 renders: the time per render,
// and per tag once the text around it (the first line) is taken off.
let term: [String: Any] = ["name": "Swift", "slug": "swift", "href": "/tags/swift/", "count": 10, "linked": true]
let post: [String: Any] = [
    "title": "Restoring view controllers", "url": "/posts/restoring-view-controllers/", "dated": true,
    "date": "25 November 2016", "datetime": "2016-11-25T00:00:00Z", "category": term, "tags": [term, term, term],
    "config": ["title": "A blog"] as [String: Any],
]
let cases: [(String, String)] = [
    ("text only", "<p>some text</p>\n"),
    ("{{{title}}}", "<p>{{{title}}}</p>\n"),
    // Escaped with swift-mustache's own HTML escaping, one Character at a time; blog's pages escape
    // with its byte escaper instead (TemplateEscaping), which costs about what {{{title}}} does.
    ("{{title}}, swift-mustache's escaping", "<p>{{title}}</p>\n"),
    ("{{missing}}", "<p>{{missing}}</p>\n"),
    ("{{config.title}}", "<p>{{config.title}}</p>\n"),
    ("{{#dated}}x{{/dated}}", "<p>{{#dated}}x{{/dated}}</p>\n"),
    ("{{^dated}}x{{/dated}}", "<p>{{^dated}}x{{/dated}}</p>\n"),
    ("{{#category}}{{name}}{{/category}}", "<p>{{#category}}{{name}}{{/category}}</p>\n"),
    ("{{^empty(tags)}}x{{/empty(tags)}}", "<p>{{^empty(tags)}}x{{/empty(tags)}}</p>\n"),
    ("{{#tags}}x{{/tags}}, 3 tags", "<p>{{#tags}}x{{/tags}}</p>\n"),
]
let renders = 5000
var textOnly = 0.0
print("microseconds per render of 20 copies, and per copy less the text-only template's")
for (label, line) in cases {
    let template = try MustacheTemplate(string: String(repeating: line, count: 20))
    var best = Double.infinity
    for _ in 0..<3 {
        let start = Date()
        var bytes = 0
        for _ in 0..<renders { bytes += template.render(post).utf8.count }
        precondition(bytes > 0)
        best = min(best, Date().timeIntervalSince(start) / Double(renders) * 1e6)
    }
    if label == "text only" { textOnly = best }
    print(String(format: "%8.2f µs %6.2f µs  %@", best, (best - textOnly) / 20, label))
}

// The same work on one core and on two at once: swift-mustache's dynamic casts each look up the Swift
// runtime's conformance cache, which both cores then share. A tag list as the default theme's post-meta
// shows it, rendered `renders` times on each thread.
let tagList = try MustacheTemplate(string: String(repeating: """
    {{^empty(tags)}}<ul class="tag-list">{{#tags}}<li>{{#linked}}<a href="{{href}}" rel="tag">{{{name}}}</a>{{/linked}}\
    {{^linked}}<span>{{{name}}}</span>{{/linked}}</li>{{/tags}}</ul>{{/empty(tags)}}
    """, count: 4))
print("\nthe tag list of a post with 3 tags, 4 times: microseconds per render on each thread")
for threads in [1, 2, 1, 2] {
    let start = Date()
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
        var bytes = 0
        for _ in 0..<renders { bytes += tagList.render(post).utf8.count }
        precondition(bytes > 0)
    }
    print(String(format: "%8.2f µs  %d thread%@", Date().timeIntervalSince(start) / Double(renders) * 1e6, threads, threads == 1 ? "" : "s at once"))
}
