package dev.cabinet.user;

import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import dev.cabinet.http.TaggedPath;
import dev.cabinet.http.TaggedResource;
import dev.cabinet.query.Items;
import dev.cabinet.query.TableReader;
import io.smallrye.mutiny.Uni;

/** Reads of the user profile (access pattern 1), shared by the user resources and other features' commands. */
@ApplicationScoped
public class UserQueries {

    private final TableReader table;

    UserQueries(TableReader table) {
        this.table = table;
    }

    /** Pattern 1: GetItem USER#u / PROFILE. A profile item that only holds counters is not a registered user. */
    public Uni<Optional<UserView>> findProfile(String userId) {
        return table.get(UserKeys.profile(userId))
                .map(item -> item.filter(i -> Items.has(i, "registeredAt")).map(UserView::of));
    }

    /** PUT and PATCH /users/{id} honour If-Match against the profile item. */
    @Produces
    @Singleton
    static TaggedResource profileTags() {
        return TaggedPath.of("/users/", UserKeys::profile);
    }
}
