print("limbo-harness")
