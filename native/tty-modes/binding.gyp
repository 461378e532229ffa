{
  "targets": [
    {
      "target_name": "tty_modes",
      "sources": ["tty-modes.c"]
    }
  ]
}
