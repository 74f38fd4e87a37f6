package dev.cabinet.erasure;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a field of an event's data as a person's data (their name, email, avatar, or text they wrote): the event log
 * writes it sealed under its subject's key ({@code DomainEvent.dataSubject()}), so that destroying the key erases it
 * from every record that holds it. The contract marks the same fields {@code x-personal-data}.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.RECORD_COMPONENT)
public @interface PersonalData {

    /** Whether the field may be absent: an erased value then reads as absent instead of as the placeholder. */
    boolean optional() default false;
}
