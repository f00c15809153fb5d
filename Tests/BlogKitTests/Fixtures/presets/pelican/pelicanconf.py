# Pelican's defaults but for pagination (off by default), so that its page URLs are checked too.
AUTHOR = 'Ada'
SITENAME = 'Preset fixture'
SITEURL = ''
PATH = 'content'
TIMEZONE = 'UTC'
DEFAULT_LANG = 'en'
DEFAULT_PAGINATION = 2
