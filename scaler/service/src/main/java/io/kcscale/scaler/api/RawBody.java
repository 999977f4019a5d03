package io.kcscale.scaler.api;

/** A response body sent as it is, for the few answers that are not JSON (Prometheus text, the web view). */
public record RawBody(String contentType, byte[] bytes) {}
