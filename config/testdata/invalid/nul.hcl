bot "arg" {
  command = ["python3", "a\u0000b"] # ERROR: Invalid command
}
bot "program" {
  command = ["bot\u0000"] # ERROR: Invalid command
}
bot "built" {
  command = ["./bot"]
  build   = ["cc", "-o", "bot", "bot\u0000.c"] # ERROR: Invalid build
}
bot "dir" {
  command = ["./bot"]
  dir     = "a\u0000b" # ERROR: Invalid bot directory
}
bot "env" {
  command = ["./bot"]
  env     = { X = "a\u0000b" } # ERROR: Invalid environment variable
}
bot "listed" {
  command = concat(["python3"], ["a\u0000b"]) # ERROR: Invalid command
}
