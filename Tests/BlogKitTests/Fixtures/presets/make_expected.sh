#!/bin/sh
# Writes expected/<preset>.txt: every file the real generator writes for the fixture blog beside
# this script, one path a line, sorted (Pelican's theme/ files left out: they are its theme's,
# not URLs of the blog). Run once by hand; the lists are kept as test data for PresetEndToEndTests.
# Made with Pelican 4.12 (pip), Hugo 0.111.3 (Debian), Jekyll 4.3.1 with jekyll-feed 0.17 and
# jekyll-paginate 1.1 (Debian: apt-get install jekyll ruby-jekyll-paginate).
set -e
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$here/expected"
list() { (cd "$1" && find . -type f | sed 's|^\./||' | grep -v '^theme/' | LC_ALL=C sort); }

cp -r "$here/pelican" "$work/pelican"
(cd "$work/pelican" && pelican content -s pelicanconf.py -o out -q)
list "$work/pelican/out" > "$here/expected/pelican.txt"

cp -r "$here/hugo" "$work/hugo"
(cd "$work/hugo" && hugo -d out --quiet)
list "$work/hugo/out" > "$here/expected/hugo.txt"

cp -r "$here/jekyll" "$work/jekyll"
(cd "$work/jekyll" && jekyll build -q -d out)
list "$work/jekyll/out" > "$here/expected/jekyll.txt"

# The same posts with `permalink: pretty` in _config.yml.
cp -r "$here/jekyll" "$work/jekyll-pretty"
echo "permalink: pretty" >> "$work/jekyll-pretty/_config.yml"
(cd "$work/jekyll-pretty" && jekyll build -q -d out)
list "$work/jekyll-pretty/out" > "$here/expected/jekyll-pretty.txt"

# The heading ids each generator's markdown gives the headings of headings.md, one a line in
# order (an empty line: no id), from the pages the real generators build.
ids() { grep -o '<h[1-6][^>]*>' "$1" | awk '{ if (match($0, /id="[^"]*"/)) print substr($0, RSTART + 4, RLENGTH - 5); else print "" }'; }
python3 -c "import markdown, sys; sys.stdout.write(markdown.Markdown(extensions=['toc']).convert(open('$here/headings.md').read()))" > "$work/pelican.html"
ids "$work/pelican.html" > "$here/expected/headings-pelican.txt"
mkdir -p "$work/jekyll-ids/_posts"
printf 'title: ids\n' > "$work/jekyll-ids/_config.yml"
{ printf -- '---\ntitle: ids\n---\n'; cat "$here/headings.md"; } > "$work/jekyll-ids/_posts/2020-01-01-ids.md"
(cd "$work/jekyll-ids" && jekyll build -q -d out)
ids "$work/jekyll-ids/out/2020/01/01/ids.html" > "$here/expected/headings-jekyll.txt"
mkdir -p "$work/hugo-ids/content/posts" "$work/hugo-ids/layouts/_default"
printf 'baseURL = "https://example.org/"\n' > "$work/hugo-ids/hugo.toml"
echo '{{ .Content }}' > "$work/hugo-ids/layouts/_default/single.html"
{ printf -- '---\ntitle: ids\n---\n'; cat "$here/headings.md"; } > "$work/hugo-ids/content/posts/ids.md"
(cd "$work/hugo-ids" && hugo -d out --quiet)
ids "$work/hugo-ids/out/posts/ids/index.html" > "$here/expected/headings-hugo.txt"
