/// The version of blog, printed by `blog --version`.
public let blogVersion = "0.1.0"
