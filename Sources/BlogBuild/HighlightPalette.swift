import BlogConfig
import BlogCore
import BlogRender

extension Pipeline {
    /// Checks `highlight_style` against the palettes `theme` has (see ``HighlightPalettes``): a
    /// name the theme lacks is a warning at its place in blog.yml, naming those it has, and the
    /// build uses `default`, so no page carries a class nothing styles.
    static func choosePalette(_ config: inout SiteConfig, theme: ThemeFiles, options: BuildOptions) -> [Diagnostic] {
        guard !theme.palettes.contains(config.highlightStyle) else { return [] }
        let path = options.sourceDisplay + "blog.yml"
        let position = ConfigLoader.position(ofValueOf: "highlight_style",
                                             inFileAt: options.source.appendingPathComponent("blog.yml").path)
        let message = "unknown highlight_style `\(config.highlightStyle)`: the theme \"\(theme.name)\" has "
            + theme.palettes.map { "`\($0)`" }.joined(separator: ", ") + "; using `\(HighlightPalettes.defaultName)`"
        config.highlightStyle = HighlightPalettes.defaultName
        return [.warning(path, line: position?.line ?? 1, column: position?.column ?? 1, message)]
    }
}
