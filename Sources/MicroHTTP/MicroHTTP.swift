enum MicroHTTPPlaceholder {}
