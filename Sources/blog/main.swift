import BlogKit
print("blog")
