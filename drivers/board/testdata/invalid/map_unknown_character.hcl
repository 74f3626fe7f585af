board {
  map = <<-EOT
    .#...
    ..X..
    .....
    EOT
}
# ERROR@4: Unknown map character
