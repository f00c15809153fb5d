# Homebrew formula: builds blog from a release tag's source with the Xcode toolchain and Homebrew's cmark-gfm.
# A tap serves it (brew install OWNER/TAP/blog). On each release, url and sha256 become the tag's source archive
# (curl -fsSL https://github.com/blog-swift/blog/archive/refs/tags/vVERSION.tar.gz | shasum -a 256): the sha256
# below is that of no archive yet, as no tag has been pushed. Only a Mac runs it:
#   brew audit --strict --formula ./blog.rb && brew install --build-from-source ./blog.rb && brew test blog
class Blog < Formula
  desc "Static blog generator: markdown posts with Pelican, Jekyll or Hugo headers to a site"
  homepage "https://github.com/blog-swift/blog"
  url "https://github.com/blog-swift/blog/archive/refs/tags/v0.1.0.tar.gz"
  sha256 "0000000000000000000000000000000000000000000000000000000000000000"
  head "https://github.com/blog-swift/blog.git", branch: "main"

  depends_on xcode: ["16.0", :build]
  depends_on "pkgconf" => :build
  depends_on "cmark-gfm"
  depends_on :macos

  def install
    system "swift", "build", "--disable-sandbox", "-c", "release", "--product", "blog"
    bin.install ".build/release/blog"
    generate_completions_from_executable(bin/"blog", "--generate-completion-script")
    (buildpath/"blog.1").write Utils.safe_popen_read("bash", "scripts/manpage", bin/"blog")
    man1.install "blog.1"
  end

  test do
    assert_equal version.to_s, shell_output("#{bin}/blog --version").strip
    system bin/"blog", "init", "site", "--base-url", "https://ann.github.io/notes/"
    cd "site" do
      system bin/"blog", "build", "--strict"
      assert_path_exists testpath/"site/public/index.html"
      system bin/"blog", "check"
    end
  end
end
