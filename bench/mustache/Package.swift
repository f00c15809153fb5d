// swift-tools-version:5.9
// What one tag costs in swift-mustache, the template engine of blog's Render stage: the numbers
// behind bench/README.md's "Where the template time goes". Run: swift run -c release (from this folder).
import PackageDescription

let package = Package(
    name: "mustache-tags",
    dependencies: [.package(url: "https://github.com/hummingbird-project/swift-mustache", exact: "2.1.1")],
    targets: [.executableTarget(name: "mustache-tags", dependencies: [.product(name: "Mustache", package: "swift-mustache")])]
)
