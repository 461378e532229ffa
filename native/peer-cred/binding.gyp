{
  "targets": [
    {
      "target_name": "peer_cred",
      "sources": ["peer-cred.c"]
    }
  ]
}
