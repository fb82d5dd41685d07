"""``{% load founding_tags %}{% if user|may_found %}``: whether to offer "Found a club" (the
pages that offer it are ``club``'s, which cannot ask ``clubdata`` itself)."""

from django import template

from clubdata import founding

register = template.Library()


@register.filter
def may_found(user) -> bool:
    return founding.may_found(user)
