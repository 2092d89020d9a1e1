print("dragboard")
