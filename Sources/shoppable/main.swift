print("shoppable")
