print("rtcheck")
