board {
  size = 5
  map  = <<-EOT
    .#.
    ...
    ...
    EOT
}
# ERROR@3: Map does not fit the board
