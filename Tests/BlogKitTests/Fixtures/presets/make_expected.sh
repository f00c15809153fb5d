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
