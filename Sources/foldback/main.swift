print("foldback")
