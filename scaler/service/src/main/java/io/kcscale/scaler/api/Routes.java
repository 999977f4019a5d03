package io.kcscale.scaler.api;

/** A group of related endpoints; the server registers each group on its router. */
public interface Routes {

    void register(Router router);
}
