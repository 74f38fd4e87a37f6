package dev.cabinet.role;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithParentName;

/** The setting that chooses what this instance does. */
@ConfigMapping(prefix = Role.PROPERTY)
public interface RoleConfig {

    /**
     * What this instance does: {@code api} (the stateless REST API), {@code projector} (a member of the consumer
     * group), {@code operator} (the endpoints under {@code /admin}) or {@code both} (all three, for dev); one image
     * serves every role (docs/deploy.md).
     */
    @WithParentName
    @WithDefault("both")
    Role role();
}
