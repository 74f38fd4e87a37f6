package dev.cabinet.customer;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** How a day's orders are spread over GSI2. */
@ConfigMapping(prefix = "cabinet.orders")
public interface OrdersConfig {

    /** GSI2 partitions one day's orders are spread over (the shard from the order id); grow only. */
    @WithDefault("4")
    int shards();
}
