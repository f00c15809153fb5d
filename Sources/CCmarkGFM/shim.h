#include <cmark-gfm.h>
#include <cmark-gfm-extension_api.h>
#include <cmark-gfm-core-extensions.h>

/* libcmark-gfm-extensions' maker of the autolink extension: exported by the library (the shared one and
 * the static archive), but declared in no installed header. GFM.Extensions makes one extension of its
 * own with it, never registered, whose e-mail postprocess it takes off. */
cmark_syntax_extension *create_autolink_extension(void);
