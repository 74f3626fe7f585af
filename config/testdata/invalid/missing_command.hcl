bot "py" { # ERROR: Missing bot command
  dir = "."
}
bot "empty" {
  command = [] # ERROR: Missing bot command
}
bot "both" {
  house   = "planowanie/random"
  command = ["python3", "x.py"] # ERROR: Conflicting bot settings
}
