bot "a" {
  house = # ERROR: Invalid expression
}
