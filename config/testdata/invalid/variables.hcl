variable "rounds" { # ERROR: No value for required variable
  type = number
}
locals {
  a = local.b # ERROR: Cycle in local values
  b = local.a # ERROR: Cycle in local values
  c = var.nope # ERROR: Unknown variable
}
