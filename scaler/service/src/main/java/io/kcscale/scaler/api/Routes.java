package io.kcscale.scaler.api;

/** A group of related endpoints; the server registers each group in its route table. */
public interface Routes {

    void register(RouteTable routes);
}
